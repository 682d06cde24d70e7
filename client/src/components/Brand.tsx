/** The round speech-bubble mark shown above the auth forms. */
export function BrandMark() {
  return (
    <div className="brand-mark" aria-hidden="true">
      <svg viewBox="0 0 24 24" width="28" height="28">
        <path
          fill="currentColor"
          d="M12 3C6.9 3 3 6.4 3 10.6c0 2.5 1.4 4.7 3.6 6.1l-.8 3.3c-.1.4.3.7.7.5l3.8-2.2c.6.1 1.1.1 1.7.1 5.1 0 9-3.4 9-7.7S17.1 3 12 3z"
        />
      </svg>
    </div>
  );
}

// How a room is named for the one looking at it: a room someone renamed keeps that
// name for everyone; one no one renamed is named after the viewer's company: the other member's
// name in a two-person room, up to three names and "외 N명" in a group. A room the viewer is alone
// in keeps its stored name.
const NAMES_SHOWN = 3;

export function viewerRoomName(stored: string, renamed: boolean, otherNames: readonly string[]): string {
  if (renamed || otherNames.length === 0) return stored;
  const shown = otherNames.slice(0, NAMES_SHOWN).join(', ');
  const rest = otherNames.length - NAMES_SHOWN;
  return rest > 0 ? `${shown} 외 ${rest}명` : shown;
}

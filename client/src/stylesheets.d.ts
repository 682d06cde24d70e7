// A stylesheet webpack emits as a file (webpack.config.ts: the linked and the lazily linked
// ones): importing it gives its address. The others are injected and export nothing used.
declare module '*.css' {
  const url: string;
  export default url;
}

// A file imported with ?url is copied into the build as it is, and the import is its address
// (webpack.config.ts: asset/resource): e.g. the emoji picker's Korean data, served by us.
declare module '*?url' {
  const url: string;
  export default url;
}

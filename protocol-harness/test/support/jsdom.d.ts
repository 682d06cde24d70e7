// The part of jsdom (a dependency with no published types here) the JUnit schema check uses: a
// window whose DOMParser reads XML.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: { DOMParser: typeof DOMParser };
  }
}

// Redux Toolkit's createEntityAdapter for the chat features' normalized lists (a room's messages
// and pending sends, the chat list's rows). Imported through this module only: the client build
// (webpack.config.ts, LazyToolkitCopyPlugin) gives this import a copy of the toolkit of its own,
// so the adapter and the selector library behind it ship in the lazy chat chunks. Imported from
// '@reduxjs/toolkit' directly, they would join the one toolkit module in `main` that /login loads.
export { createEntityAdapter, type EntityState } from '@reduxjs/toolkit';

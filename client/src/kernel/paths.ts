// The client routes of docs/spec.md §2, named once for links, redirects and sagas. The list lives in
// common/ so that the server knows which addresses are pages (and answers the others with 404).
export { clientPaths as paths } from '@common/client-routes';

// The outbound-request guard (docs/operations.md, Outbound requests): a server layer of its own,
// used by features for every request to a URL a user gave. It imports no feature.
export { isIpLiteral, refusedAddressReason } from './address-policy';
export {
  Outbound,
  OUTBOUND_DEFAULTS,
  OutboundFailedError,
  OutboundRefusedError,
  type OutboundPolicy,
  type OutboundRequestOptions,
  type OutboundResponse,
  type ResolvedAddress,
  type Resolver,
} from './outbound';

// Network guards for outbound requests to addresses read from third-party content.
export { assertPublicUrl, isNonPublicAddress, NonPublicAddressError } from './public-address';

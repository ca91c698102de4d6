// Servers' networks on the node itself: a namespace per server, its ports published through the
// node's nftables table, the node's own services out of its reach (./node-network).
export { NodeNetwork, ServerNetwork, type NetworkSettings, type NetworkSupport, type StepNetwork } from "./node-network";
export { DEFAULT_NETWORK_RANGE, parseRange } from "./addresses";

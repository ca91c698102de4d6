export { ERROR_STATUS, ERROR_CODES, type ErrorCode, type ErrorMetadata, type ErrorBody } from "./codes";
export { KilnError, isErrorBody } from "./kiln-error";
export { httpStatusKey } from "./http-status";
export { maskSecrets } from "./mask-secrets";

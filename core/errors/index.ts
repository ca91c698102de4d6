export { ERROR_STATUS, ERROR_CODES, type ErrorCode, type ErrorMetadata, type ErrorBody } from "./codes";
export { KilnError } from "./kiln-error";
export { isErrorBody } from "./is-error-body";
export { httpStatusKey } from "./http-status";
export { maskSecrets } from "./mask-secrets";
export { errorMessageKey } from "./message-key";

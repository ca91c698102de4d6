// User- and template-supplied regular expressions, compiled and run by RE2's linear-time engine.
// Server and node only: the engine is ~45 KB gzip, so no island imports this (the template is
// checked when it is saved).
export { compilePattern, patternProblem, PatternError, MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE, type UserPattern, type PatternMatch } from "./user-pattern";

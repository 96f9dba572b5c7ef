/**
 * Codes of the validation's notes about the check itself that callers act on, apart from
 * change.ts so that a caller can name them without loading the checkers.
 */

/**
 * A checker ran but left a changed file out of what it compiled (Go build constraints, a Rust
 * module behind a cfg or an off feature): the file is unchecked.
 */
export const NOT_COMPILED = "checker.not_compiled";

/**
 * A checker ran without part of the project's configuration (a tsconfig `extends` that does not
 * resolve here, a tsconfig it could not read): it checked with other options than the
 * project's, so the change is unchecked.
 */
export const CONFIG_NOT_APPLIED = "checker.config";

/**
 * The checker's only complaint about a changed file's import is that a dependency the project
 * declares (package.json, pom.xml, build.gradle) is not installed here: an environment gap, not
 * an error of the change, and what the file does with the package was not checked, so the
 * change is unchecked.
 */
export const MISSING_DEPENDENCY = "checker.missing_dependency";

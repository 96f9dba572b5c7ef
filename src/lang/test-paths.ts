/**
 * Where the languages' conventions put tests: `test/`, `tests/`, `__tests__/`, `spec/`,
 * `testing/` folders; `test_*.py`, `*_test.py`, `conftest.py`, `*_test.go`, `*Test.java`,
 * `*Tests.java`; `.test.`, `.spec.`, `_test.`, `-spec.` forms in any language, and tsd's
 * `*.test-d.ts`. One rule for dead-code's entries and the impact graph's test files, which had
 * two that disagreed.
 */
const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs|testing)\/|[._-](test|spec|test-d)\.[^./]+$|(^|\/)test_[^/]+\.py$|_test\.(go|py)$|Tests?\.java$|(^|\/)conftest\.py$/;

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/**
 * C++'s `using geo::Circle;` names a member of a namespace, not a file to import: it was taken
 * for an import of a module `geo`, which no file is, so every use of `Circle` in the file (its
 * declarations, `c.area()` through them, the using-declaration itself) was `unresolved` as a
 * library's (fmt's tests, catch.hpp, cxxopts). `using std::...` stays the standard library's,
 * whatever a header of the repository adds to namespace std. Real tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, refLines } from "./support.js";

const SHAPE = `#pragma once
namespace geo {
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
};
class Circle : public Shape {
public:
    explicit Circle(double r) : r_(r) {}
    double area() const override { return 3.14 * r_ * r_; }
    static Circle unit() { return Circle(1); }
private:
    double r_;
};
}
`;

// A header of the repository that adds to namespace std (cxxopts does), which main.cpp does not include.
const COMPAT = `#pragma once
namespace std {
inline int begin(int x) { return x; }
}
`;

const MAIN = `#include <iterator>
#include "shape.hpp"
using geo::Circle;
using std::begin;
int main() {
    Circle c(2.0);
    double a = c.area();
    int xs[2] = {1, 2};
    begin(xs);
    return (int)a;
}
`;

it("C++: `using ns::Name;` reaches the namespace's symbol and what is declared of it; `using std::...` stays the library's", async () => {
  const root = writeTree(tempDir("magellan-cpp-using-"), { "src/shape.hpp": SHAPE, "src/compat.hpp": COMPAT, "src/main.cpp": MAIN });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const lines = (): string[] => refLines(root, "f.path = 'src/main.cpp' AND r.name IN ('Circle', 'area', 'begin')");
  assert.deepEqual(lines(), [
    "src/main.cpp:3 geo.Circle imported src/shape::geo::Circle",
    "src/main.cpp:4 std.begin unresolved -",
    "src/main.cpp:6 .Circle imported src/shape::geo::Circle",
    "src/main.cpp:7 c.area imported src/shape::geo::Circle::area",
    "src/main.cpp:9 .begin unresolved -",
  ]);
  // The class moves to another namespace: the using-declaration names nothing of the repository.
  writeFileSync(join(root, "src/shape.hpp"), SHAPE.replace("namespace geo {", "namespace shapes {"));
  await assertIncrementalMatchesRebuild(root, "namespace-renamed");
  assert.ok(lines().every((l) => !l.includes("imported")), lines().join("\n"));
});

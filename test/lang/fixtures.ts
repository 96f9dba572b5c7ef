/** Small realistic sources per language, shared by the extraction tests. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { languageForPath } from "../../src/lang/registry.js";

/** Every file under `dir` (recursively) of a language magellan extracts, in directory order. */
export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (languageForPath(p)) out.push(p);
  }
  return out;
}

export const TS = `import React, { useState as useS, type FC } from "react";
import * as path from "node:path";
export { helper as h } from "./helpers";

export interface Shape { area(): number; readonly name: string }
export type Point = { x: number; y: number };
export enum Color { Red, Green = 2 }

export default abstract class Base<T> implements Shape {
  readonly name = "base";
  constructor(protected value: T) {}
  abstract area(): number;
  scale(f: number): void;
  scale(f: string): void;
  scale(f: any) { this.value = f; log(path.join("a", f)); }
}

export function parse(s: string): number;
export function parse(s: unknown): number { return Number(s); }

export const add = (a: number, b: number) => a + b;
let counter = 0;
export const LIMIT = 10;

namespace Geometry.Inner { export const unit = 1; }
declare module "ext" { function ext(): void; }
function log(msg: string) { counter += 1; console.log(msg); }
`;

export const TSX = `import { useState } from "react";
export function Counter({ start }: { start: number }) {
  const [n, setN] = useState(start);
  return <Button.Primary onClick={() => setN(n + 1)}><Label text={String(n)} /></Button.Primary>;
}
`;

export const JSX = `const express = require("express");
const { Router, json: parseJson } = require("express");
import def, { a as b } from "./m.mjs";

class App extends Base {
  #secret = 1;
  static create() { return new App(); }
  render() { return <Layout title="x"><Item /></Layout>; }
}
App.prototype.listen = function (port) { this.server = start(port); };
exports.handler = function handler(req, res) { res.send(App.create()); };
const routes = { index: function (req) { return req; }, show(req) { return req; } };
export default () => 1;
var count = 0;
count++;
`;

export const PY = `import os.path as osp, sys
from .models import User as U, Group
from typing import *

MAX_SIZE = 10
registry = {}
handler = lambda event: event

@dataclass
class Service(Base):
    """A service."""
    retries = 3

    def __init__(self, name):
        self.name = name

    @property
    def url(self) -> str:
        return osp.join(self.name, helper(MAX_SIZE))

    class Config:
        debug = False

def helper(n):
    def inner():
        return n
    total = inner()
    return total
`;

export const RS = `use std::collections::{HashMap, hash_map::Entry as E};
use crate::util::*;

pub mod shapes {
    pub struct Circle { pub r: f64 }
    pub enum Kind { Round, Square(u32) }
    pub union Bits { i: u32, f: f32 }
}

pub trait Area { fn area(&self) -> f64; fn unit() -> &'static str { "m" } }

impl Circle {
    pub fn new(r: f64) -> Self { Circle { r } }
}

impl Area for Circle {
    fn area(&self) -> f64 { std::f64::consts::PI * self.r * self.r }
}

impl Square {
    pub fn new(s: f64) -> Self { Square { s } }
}

pub const MAX: usize = 8;
static mut COUNT: u32 = 0;
type Map = HashMap<String, u32>;

macro_rules! square { ($x:expr) => { $x * $x }; }

fn main() {
    let c = Circle::new(1.0);
    let a = c.area();
    println!("{}", square!(a));
}
`;

export const GO = `package shapes

import (
	"fmt"
	m "math"
	. "strings"
)

type Circle struct {
	R, D float64
	name string
}

type Shape interface {
	Area() float64
}

type Celsius float64
type Alias = Circle

const Pi = 3.14
var count, total int

func NewCircle(r float64) *Circle {
	return &Circle{R: r}
}

func (c *Circle) Area() float64 {
	count++
	return m.Pi * c.R * c.R
}

func (c Circle) String() string { return fmt.Sprintf("%v", c.R) + ToUpper(c.name) }
`;

export const JAVA = `package com.example.shapes;

import java.util.List;
import java.util.*;
import static java.lang.Math.PI;

public abstract class Shape implements Comparable<Shape> {
    public static final int SIDES = 0;
    private String name, label;

    protected Shape(String name) { this.name = name; }

    public abstract double area();

    public int compareTo(Shape other) { return Double.compare(area(), other.area()); }

    static class Circle extends Shape {
        private final double r;
        Circle(double r) { super("circle"); this.r = r; }
        public double area() { return PI * r * r; }
    }
}

interface Named { String name(); int MAX = 3; }

enum Color { RED, GREEN; Color next() { return values()[0]; } }

record Point(int x, int y) {}
`;

export const C = `#include <stdio.h>
#include "shape.h"

#define MAX_SHAPES 16
#define SQUARE(x) ((x) * (x))

typedef struct shape {
    int kind;
    double (*area)(const struct shape *);
    struct shape *next;
} shape_t;

union value { int i; double d; };
enum kind { CIRCLE, SQUARE_KIND = 2 };

static int count = 0, *cursor;
extern int verbose;
const char *names[MAX_SHAPES];

int register_shape(shape_t *s);

static double circle_area(const struct shape *s) {
    count++;
    return SQUARE(s->kind) * 3.14;
}

char *shape_name(int kind) {
    printf("%d", kind);
    return (char *)names[kind];
}
`;

export const CPP = `#include <vector>
#include "shape.hpp"

namespace geo {
inline namespace v1 {

class Shape {
 public:
  Shape(int id) : id_(id) {}
  virtual ~Shape();
  virtual double area() const = 0;
  int id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
 private:
  int id_;
};

struct Point { double x, y; };

template <typename T>
class Box : public Shape {
 public:
  double area() const override { return w * h; }
  T w, h;
};

using Points = std::vector<Point>;
enum class Color : int { Red, Green };

}  // namespace v1
}  // namespace geo

geo::Shape::~Shape() {}

double total(const std::vector<geo::Shape*>& shapes) {
  double sum = 0;
  for (auto* s : shapes) sum += s->area();
  return sum;
}
`;

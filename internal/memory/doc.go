// Package memory keeps what goals learn for later goals: short facts and
// preferences taken only from todos verified done and from the person's
// answers, each under a scope (a phone, or a user), never a secret
// (docs/design.md §8). The planner activities read it and write it; the
// workflows never touch it, so replays do not depend on it.
package memory

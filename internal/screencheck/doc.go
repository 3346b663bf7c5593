// Package screencheck evaluates postconditions on one saved or live
// screen, for `starter check`: how a person finds out why phoneflow read
// their phone the way it did. It reads checks written in the planner's
// JSON vocabulary, takes the app in front from the dump when nobody says
// it, runs the product's own evaluator (internal/postcond) and writes, per
// check, held or not held, why, and the elements it was read from
// (docs/design.md#verification-and-honest-status).
package screencheck

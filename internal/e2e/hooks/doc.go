// Package hooks runs goals on the embedded stack with Go hooks, a gate and
// a loopback webhook (docs/design.md §10), and checks what a later goal's
// planner is shown of an earlier one (§8).
package hooks

// Package planner implements the planner protocol: it builds the plan and
// replan requests (a system prompt plus a user message ending in a fenced
// JSON context block) and strictly validates the JSON answers of
// docs/design.md §3, producing feedback text to send back to the model when an
// answer breaks the contract. It is pure: no I/O, no clock.
package planner

// Package durable tests durable waits on the embedded Temporal server: a
// goal that says "in 30 seconds …" waits with a timer, runs no activity,
// gives its phone to another goal meanwhile and goes on after
// (docs/design.md §7). It is its own package so the e2e package's time
// stays bounded.
package durable

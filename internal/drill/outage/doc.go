// Package outage holds the drills in which what a goal depends on goes
// away and comes back while the goal runs: the model server refusing
// connections (the goal's status must say it waits for the model, and the
// goal must end done with its message sent once), the model server
// answering 429, 500 and malformed outputs (every fault visible in the
// histories), and the embedded Temporal server stopped and started again
// on the same SQLite file.
//
// Each drill package is its own test binary, so `go test ./...` runs them
// in parallel with the other drills and each has `go test`'s whole
// per-package time limit.
//
//	go test ./internal/drill/outage                          # fast variants
//	go test -tags drills -timeout 60m ./internal/drill/outage # a 90 s outage, 10 goals with faults
package outage

// Package steer holds the steering-burst drill on the embedded server:
// random sequences of pause, resume and inject sent at once through signals
// and updates to running goals; after each, the goal's and its running
// todo's paused state and steering number agree, and at the end every
// injected text reached an executor request, a todo's start or the
// replanner (docs/design.md §6).
//
//	go test ./internal/drill/steer                 # 10 sequences
//	go test -tags drills ./internal/drill/steer    # 100 sequences
package steer

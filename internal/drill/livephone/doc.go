// Package livephone holds the drills of a phone whose screen changes by
// itself while the product acts on it (docs/design.md §4, §15): the
// connection cut as input commands arrive, so nothing is reported applied
// that the phone did not run, and the verifier's endpoint down while a todo
// verifies, so the goal waits and ends done with its message sent once.
//
//	go test ./internal/drill/livephone
//	go test -tags drills -timeout 60m ./internal/drill/livephone
package livephone

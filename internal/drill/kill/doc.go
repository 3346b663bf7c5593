// Package kill holds the crash-loop drill: goals run on phones that live
// their own lives while their worker, a child process, is killed at seeded
// points (by the fault hooks between an action's intent and its input and
// between the input and its journal record, and with SIGKILL at random)
// and started again. Every goal must end done with its message sent once,
// and no action reported applied may be missing from the phone's input
// log (docs/design.md §4).
//
//	go test ./internal/drill/kill                            # 4 goals, 3 kills
//	go test -tags drills -timeout 60m ./internal/drill/kill  # 20 goals, 6 kills
package kill

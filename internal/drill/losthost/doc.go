// Package losthost holds the lost-host drill: the worker that serves a
// phone is killed with SIGKILL while a goal drives the phone, and the goal
// must say that no worker serves the phone, wait, and finish once the
// worker is back, sending its message exactly once (docs/design.md §5).
// A worker without phones keeps serving the shared queue meanwhile, as a
// fleet's would. The fast variant runs in the default `go test ./...`; the
// full one (40 s down, the 30 s bound checked) runs with `-tags drills`.
package losthost

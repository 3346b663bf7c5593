// Package deploy holds the deploy drill: goals started and left waiting by
// the previous release's worker (waiting for a clarification, paused
// mid-todo, waiting for a phone) are finished by the current worker after a
// rolling restart, on one embedded server that outlives both workers.
//
// The previous release is real code from the repository's history: the
// worker is built from a fixed commit (PreviousRelease) exported with `git
// archive`. Without that history (a shallow clone) the drill skips and says
// so, unless PHONEFLOW_REQUIRE_HISTORY=1 makes it fail; .ci/run deepens a
// shallow clone when it can and sets it whenever the commit is there.
//
//	go test ./internal/drill/deploy                  # one goal of each kind
//	go test -tags drills ./internal/drill/deploy     # two of each kind
//
// See docs/deploying.md ("Deploying a change to workflow code") and
// docs/design.md §16.
package deploy

//go:build drills

package deploy

// perKind is how many goals of each waiting kind the full drill leaves to
// the previous release's worker.
const perKind = 2

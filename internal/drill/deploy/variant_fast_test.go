//go:build !drills

package deploy

// perKind is how many goals of each waiting kind the drill leaves to the
// previous release's worker in the default run.
const perKind = 1

//go:build !drills

package eval

// soakFastReps is the fast soak's repetitions (`go test ./...`); the full
// soak runs with `go test -tags drills`.
const soakFastReps = 10

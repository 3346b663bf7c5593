// Package docs holds the checks that keep the README in step with the code.
// It has no code of its own: its tests read ../README.md and compare the
// configuration reference table with config.Keys, config.Default and the
// environment names config.Load accepts, and the commands the README shows
// with the starter's subcommands.
//
// Regenerate the configuration table after adding or changing a key:
//
//	go test ./docs -run TestConfigTable -update
//
// The update keeps the "meaning" column of existing rows; a new key gets an
// empty one to fill in by hand.
package docs

// Package docs holds the checks that keep the README and the pages under
// docs/ in step with the code. It has no code of its own: its tests compare
// the configuration reference table of configuration.md with config.Keys,
// config.Default and the environment names config.Load accepts; keep the two
// commands at the top of ../README.md; check that every starter command the
// pages show exists; and check that every relative link between the pages
// names a file and a heading that exist.
//
// Regenerate the configuration table after adding or changing a key:
//
//	go test ./docs -run TestConfigTable -update
//
// The update keeps the "meaning" column of existing rows; a new key gets an
// empty one to fill in by hand.
package docs

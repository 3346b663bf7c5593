package bench

import (
	"os/exec"
	"strings"
)

// Commit names the code a run measured: the binary's VCS stamp, or, for a
// binary built without one (`go run` stamps none), the commit checked out
// in the working directory, read with git. "" when neither is known.
func Commit() string {
	if c := BuildCommit(); c != "" {
		return c
	}
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	rev := strings.TrimSpace(string(out))
	if rev == "" {
		return ""
	}
	c := "commit `" + rev + "` (checked out; the binary carries no VCS stamp)"
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c = "commit `" + rev + "` + uncommitted changes (checked out; the binary carries no VCS stamp)"
	}
	return c
}

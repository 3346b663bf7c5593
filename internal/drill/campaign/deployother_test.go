package campaign

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/phoneflow/phoneflow/internal/drill/deploy"
)

// workflowCode is the pathspec of the workflow code a deploy onto another
// commit must share with this tree: the workflows package without its
// tests and recorded histories.
var workflowCode = []string{"workflows", ":(exclude)workflows/testdata", ":(exclude)workflows/*_test.go"}

// pickOtherCommit is the commit the deploy onto another build runs: want
// when set, else the oldest first-parent ancestor of HEAD, on an unbroken
// line of ancestors whose workflow code is this tree's, whose other Go
// code is not. A deploy onto it and back is safe both ways, since each
// build replays what the other recorded; a rollback across a change to
// workflow code is not a deploy phoneflow supports (workflow changes are
// patched and rolled forward, docs/design.md §16), so a commit with other
// workflow code is refused. "" and a reason when the history holds none.
func pickOtherCommit(ctx context.Context, root, want string) (string, string, error) {
	if want != "" {
		full, err := git(ctx, root, "rev-parse", "--verify", want+"^{commit}")
		if err != nil {
			return "", "", fmt.Errorf("-campaign.deploy-commit %s: %w", want, err)
		}
		if !sameCode(ctx, root, full, workflowCode...) {
			return "", "", fmt.Errorf("-campaign.deploy-commit %s: its workflow code differs from this tree's, and a deploy onto it and back would "+
				"run histories on code that did not record them (docs/design.md §16: workflow changes are patched and rolled forward)", want)
		}
		return full, "", nil
	}
	out, err := git(ctx, root, "rev-list", "--first-parent", "-n", "200", "HEAD")
	if err != nil {
		return "", "", err
	}
	pick := ""
	for _, c := range strings.Fields(out) {
		if !sameCode(ctx, root, c, workflowCode...) {
			break
		}
		if !sameCode(ctx, root, c, "*.go", ":(exclude)*_test.go") {
			pick = c
		}
	}
	if pick == "" {
		return "", "no ancestor of HEAD in this repository's history has this tree's workflow code and other Go code (a shallow clone holds no earlier commits)", nil
	}
	return pick, "", nil
}

// sameCode reports whether commit's files under pathspec are this tree's.
func sameCode(ctx context.Context, root, commit string, pathspec ...string) bool {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root, "diff", "--quiet", commit, "--"}, pathspec...)...)
	return cmd.Run() == nil
}

func git(ctx context.Context, root string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// buildOther builds the worker of commit (cached per commit and Go
// version, see deploy.BuildRelease).
func buildOther(ctx context.Context, root, commit string) (string, error) {
	bin, err := deploy.BuildRelease(ctx, root, commit)
	if errors.Is(err, deploy.ErrNoHistory) {
		return "", fmt.Errorf("the deploy onto another build: %w", err)
	}
	return bin, err
}

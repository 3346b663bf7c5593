package campaign

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/drill/deploy"
)

// TestDeployCommitSharesTheWorkflowCode: the deploy onto another build
// runs a commit whose workflow code is this tree's and whose other Go code
// is not, and a commit whose workflow code differs is refused, since a
// deploy onto it and back would run histories on code that did not record
// them (docs/design.md §16).
func TestDeployCommitSharesTheWorkflowCode(t *testing.T) {
	ctx := context.Background()
	root, err := deploy.RepoRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pick, why, err := pickOtherCommit(ctx, root, "")
	if err != nil {
		t.Fatal(err)
	}
	if pick == "" {
		if os.Getenv("PHONEFLOW_REQUIRE_HISTORY") == "1" {
			t.Fatalf("%s, but PHONEFLOW_REQUIRE_HISTORY=1 requires it", why)
		}
		t.Skipf("no commit to deploy onto: %s", why)
	}
	if !sameCode(ctx, root, pick, workflowCode...) {
		t.Errorf("picked %s, whose workflow code differs from this tree's", pick)
	}
	if sameCode(ctx, root, pick, "*.go", ":(exclude)*_test.go") {
		t.Errorf("picked %s, whose Go code is this tree's: the same build", pick)
	}
	if again, _, err := pickOtherCommit(ctx, root, pick[:12]); err != nil || again != pick {
		t.Errorf("-campaign.deploy-commit %s: got %q, %v; want it taken", pick[:12], again, err)
	}

	// The first ancestor past the pick is one whose workflow code differs.
	out, err := git(ctx, root, "rev-list", "--first-parent", "-n", "200", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	differs := ""
	for _, c := range strings.Fields(out) {
		if !sameCode(ctx, root, c, workflowCode...) {
			differs = c
			break
		}
	}
	if differs == "" {
		t.Logf("no ancestor within 200 commits has other workflow code: the refusal is not tried")
		return
	}
	if got, _, err := pickOtherCommit(ctx, root, differs); err == nil || !strings.Contains(err.Error(), "workflow code differs") {
		t.Errorf("-campaign.deploy-commit %s (other workflow code): got %q, %v; want it refused", differs[:12], got, err)
	}
}

package deploy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// PreviousRelease is the commit the previous release's worker is built
// from: the one that recorded the newest corpus folder,
// workflows/testdata/v8 (docs/design.md §16). When a release ships, it
// moves to the commit that recorded that release's folder.
const PreviousRelease = "d79b2030d7094fa922da5f3ae3e667052741a760"

// ErrNoHistory means the repository's history does not hold the commit,
// as in a shallow clone.
var ErrNoHistory = errors.New("the repository's history does not hold the commit: fetch it with `git fetch --unshallow` (a shallow clone has no earlier releases)")

// RepoRoot returns the root of the phoneflow module that holds the working
// directory.
func RepoRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("deploy: `go env GOMOD`: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("deploy: not inside the phoneflow module: run the drill from the repository")
	}
	return filepath.Dir(gomod), nil
}

// SourceDir is where BuildRelease exports a commit: a fixed place per
// commit under the user's cache directory, so the Go build cache, whose
// entries for a package depend on its directory, serves a second build of
// the same commit.
func SourceDir(commit string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("deploy: no cache directory for the previous release's source: %w", err)
	}
	return filepath.Join(base, "phoneflow", "releases", commit), nil
}

// BuildRelease exports commit from the repository at root with `git
// archive` into SourceDir(commit) (the repository's work tree and worktree
// list stay untouched; an export already there is used again) and builds
// its worker there, once per Go version (the source of a commit never
// changes, and linking the worker takes a minute on a small machine). It
// returns the binary's path, or ErrNoHistory when root has no such commit.
func BuildRelease(ctx context.Context, root, commit string) (string, error) {
	if err := exec.CommandContext(ctx, "git", "-C", root, "cat-file", "-e", commit+"^{commit}").Run(); err != nil {
		return "", fmt.Errorf("deploy: commit %s: %w", commit, ErrNoHistory)
	}
	src, err := SourceDir(commit)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(src, ".exported")); err != nil {
		if err := export(ctx, root, commit, src); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(src, ".bin", "worker-"+runtime.Version())
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	// Built beside its final name and renamed, so an interrupted build
	// leaves nothing that looks finished.
	tmp := bin + ".tmp"
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	build := exec.CommandContext(ctx, "go", "build", "-o", tmp, "./worker")
	build.Dir = src
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("deploy: go build ./worker at %s: %v: %s", commit[:12], err, strings.TrimSpace(string(out)))
	}
	return bin, os.Rename(tmp, bin)
}

// export writes commit's tree into src, marking it complete last, so an
// interrupted export is done again.
func export(ctx context.Context, root, commit, src string) error {
	if err := os.RemoveAll(src); err != nil {
		return err
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	archive := exec.CommandContext(ctx, "git", "-C", root, "archive", "--format=tar", commit)
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var aerr, terr strings.Builder
	archive.Stderr, untar.Stderr = &aerr, &terr
	if err := untar.Start(); err != nil {
		return fmt.Errorf("deploy: tar: %w", err)
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return fmt.Errorf("deploy: git archive %s: %v: %s", commit, err, strings.TrimSpace(aerr.String()))
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("deploy: tar: %v: %s", err, strings.TrimSpace(terr.String()))
	}
	return os.WriteFile(filepath.Join(src, ".exported"), []byte(commit+"\n"), 0o644)
}

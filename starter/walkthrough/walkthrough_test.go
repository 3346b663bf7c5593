package walkthrough

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// TestNewcomerWalkthrough is a newcomer's first hour as a script: it starts
// the demo (kept up) from the built starter, then pastes into "another
// terminal" every command and link the demo prints, then the ones `run`,
// `run --detach`, `status` and `schedule trigger` print, and checks that
// each works: commands reach the demo's cluster and phone, links answer.
func TestNewcomerWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the starter and runs the demo with the embedded Temporal server; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "starter")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/phoneflow/phoneflow/starter").CombinedOutput(); err != nil {
		t.Fatalf("build the starter: %v\n%s", err, out)
	}
	home := t.TempDir()
	// Non-default ports: the Temporal port and a Web UI port that is not
	// port+1000, so every printed command must carry both.
	port := stacktest.FreePortPair(t)
	uiPort := stacktest.FreePortPair(t)
	// The newcomer's shell sets nothing: the step viewer links come from
	// the worker that serves the goal, wherever its viewer listens.
	env := newcomerEnv(home)
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute)
	defer cancel()
	ports := []string{"--data-dir", filepath.Join(dir, "data"), "--temporal-port", strconv.Itoa(port), "--temporal-ui-port", strconv.Itoa(uiPort)}

	demo := exec.CommandContext(ctx, bin, append([]string{"demo", "--keep"}, ports...)...)
	demo.Dir, demo.Env = home, env
	pipe, err := demo.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	demo.Stderr = demo.Stdout
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = demo.Process.Signal(os.Interrupt)
			_ = demo.Wait()
		}
	}()
	var demoOut []string
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		demoOut = append(demoOut, sc.Text())
		if strings.Contains(sc.Text(), "press Ctrl-C to stop") {
			break
		}
	}
	tail := make(chan []string, 1)
	go func() { // keep the pipe drained while the demo stays up
		var rest []string
		for sc.Scan() {
			rest = append(rest, sc.Text())
		}
		tail <- rest
	}()
	if !strings.Contains(strings.Join(demoOut, "\n"), "press Ctrl-C to stop") {
		t.Fatalf("the demo did not come up:\n%s", strings.Join(demoOut, "\n"))
	}
	serial := regexp.MustCompile(`phone (\S+) on adb server`).FindStringSubmatch(strings.Join(demoOut, "\n"))
	if serial == nil {
		t.Fatalf("the demo does not name its phone:\n%s", strings.Join(demoOut, "\n"))
	}
	paste := func(args []string, wantCode int) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir, cmd.Env = home, env
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("starter %s: %v", strings.Join(args, " "), err)
		}
		if code != wantCode {
			t.Fatalf("pasted `starter %s`: exit %d, want %d\n%s", strings.Join(args, " "), code, wantCode, out)
		}
		t.Logf("pasted `starter %s`: exit %d", strings.Join(args, " "), code)
		return string(out)
	}
	openLinks := func(out string) int {
		t.Helper()
		n := 0
		for _, u := range printedLinks(out) {
			resp, err := http.Get(u)
			if err != nil {
				t.Errorf("printed link %s: %v", u, err)
				continue
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("printed link %s: %s", u, resp.Status)
			}
			n++
		}
		return n
	}

	// The demo's own links and the commands that reach its phone.
	if n := openLinks(strings.Join(demoOut, "\n")); n < 2 {
		t.Errorf("the demo printed %d links, want its Web UI and step viewer:\n%s", n, strings.Join(demoOut, "\n"))
	}
	cmds := printedCommands(strings.Join(demoOut, "\n"))
	var runArgs []string
	for _, args := range cmds {
		switch args[0] {
		case "devices":
			if out := paste(args, 0); !strings.Contains(out, serial[1]) {
				t.Errorf("`starter %s` does not list the demo's phone %s:\n%s", strings.Join(args, " "), serial[1], out)
			}
		case "run":
			runArgs = args
		case "clarify":
			// Only with --ask; the showcase asks nothing.
		}
	}
	if runArgs == nil {
		t.Fatalf("the demo printed no `run` command for its phone:\n%s", strings.Join(demoOut, "\n"))
	}

	// `run` as printed follows the goal to its end and prints its links.
	out := paste(runArgs, 0)
	if !strings.Contains(out, "on "+serial[1]) || !strings.Contains(out, " done after ") {
		t.Fatalf("the printed run did not drive the demo's phone to done:\n%s", out)
	}
	openLinks(out)
	id := regexp.MustCompile(`started (\S+) on`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("run does not name the goal it started:\n%s", out)
	}
	flags := connFlags(runArgs)

	// `status` of the finished goal, and its links.
	out = paste(append([]string{"status", id[1]}, flags...), 0)
	if n := openLinks(out); n < 2 {
		t.Errorf("status printed %d links, want the Web UI and the step viewer:\n%s", n, out)
	}

	// `run --detach` prints how to follow and stop the goal.
	out = paste(append(append([]string(nil), runArgs[:len(runArgs)-1]...), "--detach", runArgs[len(runArgs)-1]), 0)
	openLinks(out)
	for _, args := range printedCommands(out) {
		switch args[0] {
		case "status":
			if got := paste(args, 0); !strings.Contains(got, " done after ") {
				t.Errorf("`starter %s` did not follow the goal to its end:\n%s", strings.Join(args, " "), got)
			}
		case "cancel":
			// Pasted after the goal ended: it reaches the goal and says
			// there is nothing to cancel (exit 1).
			if got := paste(args, 1); !strings.Contains(got, "nothing to cancel") {
				t.Errorf("`starter %s`:\n%s", strings.Join(args, " "), got)
			}
		default:
			t.Errorf("run --detach printed an unexpected command `starter %s`", strings.Join(args, " "))
		}
	}

	// A schedule, triggered now, and the command its trigger prints.
	paste(append([]string{"schedule", "create", "walkthrough", "--goal", "Turn on Wi-Fi", "--device", serial[1], "--every", "1h"}, flags...), 0)
	out = paste(append([]string{"schedule", "trigger", "walkthrough"}, flags...), 0)
	followed := false
	for _, args := range printedCommands(out) {
		if args[0] == "status" {
			paste(args, 0)
			followed = true
		}
	}
	if !followed {
		t.Errorf("schedule trigger printed no command to follow its goal:\n%s", out)
	}

	// Ctrl-C on the kept demo says what stopped and what is kept.
	_ = demo.Process.Signal(os.Interrupt)
	_ = demo.Wait()
	stopped = true
	if rest := strings.Join(<-tail, "\n"); !strings.Contains(rest, "stopped the demo") || !strings.Contains(rest, "kept in") {
		t.Errorf("Ctrl-C on demo --keep did not say what stopped and what is kept:\n%s", rest)
	}

	askAndResume(ctx, t, bin, home, env, ports, paste)
}

// askAndResume runs `demo --ask` on the same ports, interrupts it while
// the goal waits for its answer, pastes the `demo --resume` command it
// prints on the way out, and answers the resumed goal with the clarify
// command the first demo printed: the goal an interrupted demo left ends
// done.
func askAndResume(ctx context.Context, t *testing.T, bin, home string, env, ports []string, paste func([]string, int) string) {
	t.Helper()
	start := func(args []string) (*exec.Cmd, *bufio.Scanner) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir, cmd.Env = home, env
		pipe, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
		})
		return cmd, bufio.NewScanner(pipe)
	}
	until := func(sc *bufio.Scanner, mark string) string {
		t.Helper()
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if strings.Contains(sc.Text(), mark) {
				return strings.Join(lines, "\n")
			}
		}
		t.Fatalf("the demo ended before %q:\n%s", mark, strings.Join(lines, "\n"))
		return ""
	}
	ask, sc := start(append([]string{"demo", "--ask"}, ports...))
	out := until(sc, "question:")
	var clarify []string
	for _, args := range printedCommands(out) {
		if args[0] == "clarify" && !strings.Contains(strings.Join(args, " "), "<") {
			clarify = args
			break
		}
	}
	if clarify == nil {
		t.Fatalf("demo --ask printed no clarify command to paste:\n%s", out)
	}
	_ = ask.Process.Signal(os.Interrupt)
	out = until(sc, "stopped the demo")
	_ = ask.Wait()
	var resume []string
	for _, args := range printedCommands(out) {
		if args[0] == "demo" {
			resume = args
		}
	}
	if resume == nil || !slices.Contains(resume, "--resume") {
		t.Fatalf("the interrupted demo printed no `demo --resume` command:\n%s", out)
	}
	again, sc := start(resume)
	out = until(sc, "question:")
	if !strings.Contains(out, "continuing ") {
		t.Errorf("`starter %s` did not continue the interrupted goal:\n%s", strings.Join(resume, " "), out)
	}
	paste(clarify, 0)
	var rest []string
	for sc.Scan() {
		rest = append(rest, sc.Text())
	}
	err := again.Wait()
	if err != nil || !strings.Contains(strings.Join(rest, "\n"), "sent to Alice Chen") {
		t.Fatalf("the resumed demo, answered with the printed clarify command: %v\n%s", err, strings.Join(rest, "\n"))
	}
}

// newcomerEnv is a clean environment: no PHONEFLOW_* settings of the
// machine running the test, a fresh home.
func newcomerEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PHONEFLOW_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home)
}

var linkRe = regexp.MustCompile(`(?m)^\s*(?:Web UI|Step viewer): (https?://\S+)`)

// printedLinks are the links a command's output offers a person to open
// (its "Web UI: …" and "Step viewer: …" lines).
func printedLinks(out string) []string {
	var links []string
	for _, m := range linkRe.FindAllStringSubmatch(out, -1) {
		links = append(links, m[1])
	}
	return links
}

var backtickRe = regexp.MustCompile("`((?:go run \\./)?starter [^`]+)`")

// printedCommands are the starter commands in a command's output, as a
// person would paste them: whole lines that start with `starter` or `go run
// ./starter`, and spans in backticks; each is returned as its arguments.
func printedCommands(out string) [][]string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "starter ") || strings.HasPrefix(l, "go run ./starter ") {
			lines = append(lines, l)
		}
		for _, m := range backtickRe.FindAllStringSubmatch(l, -1) {
			lines = append(lines, m[1])
		}
	}
	var cmds [][]string
	for _, l := range lines {
		l = strings.TrimPrefix(strings.TrimPrefix(l, "go run ./"), "starter ")
		if args := shellWords(l); len(args) > 0 && !strings.Contains(l, "…") {
			cmds = append(cmds, args)
		}
	}
	return cmds
}

// shellWords splits a pasted command line as a POSIX shell would for the
// quoting printed commands use: double quotes (Go-quoted) and single quotes.
func shellWords(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		switch s[0] {
		case '"':
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil
			}
			w, _ := strconv.Unquote(q)
			out, s = append(out, w), s[len(q):]
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil
			}
			out, s = append(out, s[1:end+1]), s[end+2:]
		default:
			end := strings.IndexAny(s, " \t")
			if end < 0 {
				end = len(s)
			}
			out, s = append(out, s[:end]), s[end:]
		}
	}
	return out
}

// connFlags are the flags of a printed `run` command that reach the
// cluster (its flags but --adb-address, which only a phone's command takes,
// and the goal text at its end).
func connFlags(args []string) []string {
	var out []string
	for i := 1; i < len(args)-1; i++ {
		if args[i] == "--adb-address" {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

package adbserver_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// adbCLI runs Debian's adb client against our server. Without adb on PATH
// the test skips, unless PHONEFLOW_REQUIRE_ADB=1 makes that a failure.
type adbCLI struct {
	t    testing.TB
	bin  string
	port string
	home string
}

func newADBCLI(t testing.TB, serverAddr string) *adbCLI {
	t.Helper()
	bin := stacktest.NeedADB(t)
	_, port, err := net.SplitHostPort(serverAddr)
	if err != nil {
		t.Fatal(err)
	}
	a := &adbCLI{t: t, bin: bin, port: port, home: t.TempDir()}
	// Runs before the server's own cleanup closes it; a client that found
	// no server would otherwise leave its own daemon on the port.
	t.Cleanup(func() { _, _ = a.cmd("kill-server").CombinedOutput() })
	return a
}

func (a *adbCLI) cmd(args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	a.t.Cleanup(cancel)
	c := exec.CommandContext(ctx, a.bin, append([]string{"-P", a.port}, args...)...)
	env := []string{"HOME=" + a.home}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ADB_") && !strings.HasPrefix(kv, "ANDROID_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	c.Env = env
	return c
}

// stdout runs adb and returns its standard output, failing on a non-zero
// exit or on adb starting a server of its own (which means it did not
// accept ours).
func (a *adbCLI) stdout(args ...string) []byte {
	a.t.Helper()
	var stderr bytes.Buffer
	c := a.cmd(args...)
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		a.t.Fatalf("adb %s: %v\nstdout: %.300q\nstderr: %s", strings.Join(args, " "), err, out, stderr.String())
	}
	if strings.Contains(stderr.String(), "daemon") {
		a.t.Fatalf("adb %s did not accept our server: %s", strings.Join(args, " "), stderr.String())
	}
	return out
}

func TestDebianADBClient(t *testing.T) {
	r := newRig(t)
	adb := newADBCLI(t, r.srv.Addr())

	devs := string(adb.stdout("devices", "-l"))
	if !strings.Contains(devs, r.serial) || !strings.Contains(devs, " device ") || !strings.Contains(devs, "model:Pixel_7") {
		t.Fatalf("adb devices -l:\n%s", devs)
	}
	s := []string{"-s", r.serial}
	if out := string(adb.stdout(append(s, "shell", "echo", "hi")...)); out != "hi\n" {
		t.Fatalf("adb shell echo hi = %q", out)
	}
	png := adb.stdout(append(s, "exec-out", "screencap", "-p")...)
	want, _, _ := r.phone.Screenshot()
	if !bytes.Equal(png, want) {
		t.Fatalf("adb exec-out screencap -p: %d bytes, the phone's screen is %d", len(png), len(want))
	}

	dir := t.TempDir()
	content := bytes.Repeat([]byte("pushed through our adb server\n"), 7000) // ~210 KB
	src, dst := filepath.Join(dir, "up.txt"), filepath.Join(dir, "down.txt")
	if err := os.WriteFile(src, content, 0o644); err != nil {
		t.Fatal(err)
	}
	adb.stdout(append(s, "push", src, "/sdcard/Download/up.txt")...)
	adb.stdout(append(s, "pull", "/sdcard/Download/up.txt", dst)...)
	got, err := os.ReadFile(dst)
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("adb pull: %d bytes (err %v), pushed %d", len(got), err, len(content))
	}

	// A second phone attached with adb connect.
	_, serial2, _ := startPhone(t)
	if out := string(adb.stdout("connect", serial2)); !strings.Contains(out, "connected to "+serial2) {
		t.Fatalf("adb connect: %q", out)
	}
	if out := string(adb.stdout("-s", serial2, "shell", "getprop", "ro.serialno")); strings.TrimSpace(out) != serial2 {
		t.Fatalf("shell on the second phone = %q", out)
	}
	if out := string(adb.stdout("disconnect", serial2)); !strings.Contains(out, "disconnected "+serial2) {
		t.Fatalf("adb disconnect: %q", out)
	}

	adb.stdout(append(s, "wait-for-device")...)
	if out := strings.TrimSpace(string(adb.stdout(append(s, "get-state")...))); out != "device" {
		t.Fatalf("adb get-state = %q", out)
	}
	if out := string(adb.stdout("devices")); !strings.Contains(out, r.serial+"\tdevice\n") || strings.Contains(out, serial2) {
		t.Fatalf("adb devices after disconnecting the second phone:\n%s", out)
	}
	out, err := adb.cmd("-s", "127.0.0.1:1", "shell", "echo").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "device '127.0.0.1:1' not found") {
		t.Fatalf("adb on an unknown serial: %v, %q", err, out)
	}
}

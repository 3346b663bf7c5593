package phonesim

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realADB runs Debian's adb against a private server port.
type realADB struct {
	t    *testing.T
	bin  string
	port int
}

// startADB starts an adb server on a free loopback port and stops it when
// the test ends. Without adb the test skips, unless PHONEFLOW_REQUIRE_ADB=1.
func startADB(t *testing.T) *realADB {
	t.Helper()
	bin, err := exec.LookPath("adb")
	if err != nil {
		if os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
			t.Fatal("adb is not installed but PHONEFLOW_REQUIRE_ADB=1: install it with `apt-get install -y adb`")
		}
		t.Skip("adb is not installed (apt-get install -y adb); set PHONEFLOW_REQUIRE_ADB=1 to fail instead of skipping")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	a := &realADB{t: t, bin: bin, port: port}
	a.run("start-server")
	t.Cleanup(func() { a.run("kill-server") })
	return a
}

func (a *realADB) cmd(args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	a.t.Cleanup(cancel)
	c := exec.CommandContext(ctx, a.bin, append([]string{"-P", strconv.Itoa(a.port)}, args...)...)
	env := []string{"HOME=" + a.t.TempDir()}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ADB_") && !strings.HasPrefix(kv, "ANDROID_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	c.Env = env
	return c
}

func (a *realADB) run(args ...string) string {
	a.t.Helper()
	out, err := a.cmd(args...).CombinedOutput()
	if err != nil {
		a.t.Fatalf("adb %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (a *realADB) stdout(args ...string) []byte {
	a.t.Helper()
	var stderr bytes.Buffer
	c := a.cmd(args...)
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		a.t.Fatalf("adb %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func TestRealADB(t *testing.T) {
	adb := startADB(t)
	p := New(Config{Serial: "e2e"})
	addr := servePhone(t, p)

	if out := adb.run("connect", addr); !strings.Contains(out, "connected to "+addr) {
		t.Fatalf("adb connect: %q", out)
	}
	deadline := time.Now().Add(20 * time.Second)
	var devices string
	for {
		devices = adb.run("devices", "-l")
		if strings.Contains(devices, addr+" ") && strings.Contains(devices, " device ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("phone never listed as a device:\n%s", devices)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(devices, "model:Pixel_7") || !strings.Contains(devices, "product:phonesim") {
		t.Fatalf("devices -l lacks model/product:\n%s", devices)
	}
	s := []string{"-s", addr}
	sh := func(args ...string) string { return adb.run(append(append(s, "shell"), args...)...) }

	sh("monkey", "-p", pkgSettings, "-c", "android.intent.category.LAUNCHER", "1")
	wifi := element(t, p, "wifi_switch")
	x, y := wifi.Bounds.Center()
	sh("input", "tap", strconv.Itoa(x), strconv.Itoa(y))
	var st State
	if err := json.Unmarshal([]byte(sh("simctl", "state")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Toggles.WiFi || st.CurrentApp != pkgSettings {
		t.Fatalf("after adb shell input tap on Wi-Fi: %+v on %s", st.Toggles, st.CurrentApp)
	}

	img, err := png.Decode(bytes.NewReader(adb.stdout(append(s, "exec-out", "screencap", "-p")...)))
	if err != nil {
		t.Fatalf("exec-out screencap -p is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1080 || b.Dy() != 2400 {
		t.Fatalf("screenshot size %v", b)
	}
	xml := adb.stdout(append(s, "exec-out", "uiautomator", "dump", "/dev/tty")...)
	if !bytes.Contains(xml, []byte(`text="Wi-Fi"`)) {
		t.Fatalf("uiautomator over exec-out: %.200q", xml)
	}

	dir := t.TempDir()
	content := bytes.Repeat([]byte("phonesim push/pull round trip\n"), 10000) // ~290 KB: several sync chunks
	src, dst := filepath.Join(dir, "up.txt"), filepath.Join(dir, "down.txt")
	if err := os.WriteFile(src, content, 0o644); err != nil {
		t.Fatal(err)
	}
	adb.run(append(s, "push", src, "/sdcard/Download/up.txt")...)
	if got := sh("ls", "/sdcard/Download"); !strings.Contains(got, "up.txt") {
		t.Fatalf("pushed file not listed: %q", got)
	}
	adb.run(append(s, "pull", "/sdcard/Download/up.txt", dst)...)
	got, err := os.ReadFile(dst)
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("pull returned %d bytes (err %v), pushed %d", len(got), err, len(content))
	}
	if out := sh("nosuchtool"); !strings.Contains(out, "/system/bin/sh: nosuchtool: inaccessible or not found") {
		t.Fatalf("unknown command over adb: %q", out)
	}
}

package phonesim

import (
	"strings"
	"testing"
	"time"
)

// TestShellKeepsFilesAsAPhoneDoes runs the file commands the action
// journal sends (docs/design.md §4) and checks what a phone's toybox and
// mksh do with them.
func TestShellKeepsFilesAsAPhoneDoes(t *testing.T) {
	p := New(Config{Serial: "emulator-5554", Life: Life{Manual: true}})
	const d = "/data/local/tmp/phoneflow/journal"

	// A redirection into a directory that does not exist fails, as in sh.
	if out := sh(t, p, "echo x > "+d+"/a/f && echo ok"); !strings.Contains(out, "can't create") || strings.Contains(out, "ok") {
		t.Fatalf("redirect into a missing directory: %q", out)
	}
	// Write through a temporary file renamed over the target, with a
	// quote in the content, under umask 077.
	line := `umask 077 && mkdir -p ` + d + `/a ` + d + `/t && printf '%s\n' '{"t":"it'\''s"}' > ` + d + `/a/.x.tmp && mv ` + d + `/a/.x.tmp ` + d + `/a/x && touch ` + d + `/t/0005 && echo written; ls ` + d + `/t`
	if out := sh(t, p, line); out != "written\n0005\n" {
		t.Fatalf("write: %q", out)
	}
	if out := sh(t, p, "cat "+d+"/a/x"); out != `{"t":"it's"}`+"\n" {
		t.Fatalf("cat = %q", out)
	}
	if out := sh(t, p, "ls "+d+"/a"); out != "x\n" {
		t.Fatalf("the temporary file is left: %q", out)
	}
	if out := sh(t, p, "ls -l "+d+"/a"); !strings.HasPrefix(out, "-rw------- ") {
		t.Fatalf("umask 077 not applied: %q", out)
	}
	if out := sh(t, p, "ls -l "+d); !strings.Contains(out, "drwx------ ") {
		t.Fatalf("directories under umask 077: %q", out)
	}
	// A new shell starts with umask 0; sh -c inherits its parent's.
	if out := sh(t, p, "umask; umask 027; sh -c umask"); out != "0000\n0027\n" {
		t.Fatalf("umask = %q", out)
	}
	// printf never interprets its arguments, and uses its format again.
	if out := sh(t, p, `printf '%s|' 'a\nb' '%d'; printf 'n=%d\n' 7`); out != `a\nb|%d|n=7`+"\n" {
		t.Fatalf("printf = %q", out)
	}
	// mv of a missing file fails; rm -f of one does not.
	if out := sh(t, p, "mv "+d+"/nope "+d+"/a/y || echo failed; rm -f "+d+"/nope && echo removed"); out != "mv: bad '"+d+"/nope': No such file or directory\nfailed\nremoved\n" {
		t.Fatalf("mv/rm = %q", out)
	}
	// find -mtime counts days of the phone's clock; -delete removes.
	p.Advance(3 * 24 * time.Hour)
	sh(t, p, "printf '%s\\n' new > "+d+"/a/y")
	p.Advance(5 * 24 * time.Hour)
	if out := sh(t, p, "find "+d+"/a -type f -mtime +7 -delete; ls "+d+"/a"); out != "y\n" {
		t.Fatalf("after pruning files older than 7 days: %q", out)
	}
	// A full /data refuses writes and directories alike.
	if err := p.SetFault(Fault{Kind: FaultDataFull}); err != nil {
		t.Fatal(err)
	}
	if out := sh(t, p, "printf '%s\\n' z > "+d+"/a/z && echo written"); !strings.Contains(out, "No space left on device") || strings.Contains(out, "written") {
		t.Fatalf("write on a full /data: %q", out)
	}
	if out := sh(t, p, "mkdir -p /data/local/tmp/other || echo failed"); !strings.Contains(out, "failed") {
		t.Fatalf("mkdir on a full /data: %q", out)
	}
	if out := sh(t, p, "echo ok > /sdcard/f && cat /sdcard/f"); out != "ok\n" {
		t.Fatalf("/sdcard is another partition: %q", out)
	}
	if err := p.SetFault(Fault{Kind: FaultClear}); err != nil {
		t.Fatal(err)
	}
	if out := sh(t, p, "touch "+d+"/t/0009 && ls "+d+"/t"); out != "0005\n0009\n" {
		t.Fatalf("after the fault cleared: %q", out)
	}
}

package phonesim

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// cmdEnv is what a shell command sees: its arguments, its stdin, and
// stdout/stderr buffers. It returns an exit status.
type cmdEnv struct {
	args   []string
	stdin  []byte
	stdout *bytes.Buffer
	stderr *bytes.Buffer
	sh     *shellState
}

// shellState is what one shell process keeps between its commands.
type shellState struct {
	umask uint32 // adbd starts the shell with 0000
}

func (e *cmdEnv) out(format string, a ...any) { fmt.Fprintf(e.stdout, format, a...) }
func (e *cmdEnv) err(format string, a ...any) { fmt.Fprintf(e.stderr, format, a...) }

type command func(p *Phone, e *cmdEnv) int

var commands map[string]command

func init() {
	commands = map[string]command{
		"input": (*Phone).cmdInput, "am": (*Phone).cmdAm, "ime": (*Phone).cmdIme,
		"settings": (*Phone).cmdSettings, "monkey": (*Phone).cmdMonkey, "dumpsys": (*Phone).cmdDumpsys,
		"wm": (*Phone).cmdWm, "pm": (*Phone).cmdPm, "uiautomator": (*Phone).cmdUiautomator,
		"screencap": (*Phone).cmdScreencap, "getprop": (*Phone).cmdGetprop, "simctl": (*Phone).cmdSimctl,
		"echo": cmdEcho, "ls": (*Phone).cmdLs, "cat": (*Phone).cmdCat, "mkdir": (*Phone).cmdMkdir,
		"rm": (*Phone).cmdRm, "touch": (*Phone).cmdTouch, "grep": cmdGrep, "head": cmdHead,
		"true":   func(*Phone, *cmdEnv) int { return 0 },
		"false":  func(*Phone, *cmdEnv) int { return 1 },
		"pwd":    func(_ *Phone, e *cmdEnv) int { e.out("/\n"); return 0 },
		"whoami": func(_ *Phone, e *cmdEnv) int { e.out("shell\n"); return 0 },
		"id": func(_ *Phone, e *cmdEnv) int {
			e.out("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1015(sdcard_rw) context=u:r:shell:s0\n")
			return 0
		},
		"sleep": cmdSleep, "date": (*Phone).cmdDate,
		"exit":  func(*Phone, *cmdEnv) int { return 0 },
		"sh":    (*Phone).cmdSh,
		"umask": cmdUmask, "printf": cmdPrintf, "mv": (*Phone).cmdMv, "find": (*Phone).cmdFind,
		"stat": (*Phone).cmdStat, "dd": (*Phone).cmdDd, "cmd": (*Phone).cmdCmd,
	}
}

// runShell runs one shell line, writing stdout and stderr (merged, as the
// raw shell protocol does) to out.
func (p *Phone) runShell(line string, _ io.Reader, out io.Writer) {
	p.runShellWith(&shellState{}, line, out)
}

// runShellWith runs a shell line in a shell process whose state is sh.
func (p *Phone) runShellWith(sh *shellState, line string, out io.Writer) {
	pls, err := parseLine(line)
	if err != nil {
		fmt.Fprintf(out, "/system/bin/sh: %v\n", err)
		return
	}
	status := 0
	for _, pl := range pls {
		if (pl.op == "&&" && status != 0) || (pl.op == "||" && status == 0) {
			continue
		}
		var stdin []byte
		for i, c := range pl.cmds {
			e := &cmdEnv{args: c.args, stdin: stdin, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, sh: sh}
			if c.errToOut {
				e.stderr = e.stdout
			}
			status = p.exec(e)
			if !c.errNull && !c.errToOut {
				_, _ = out.Write(e.stderr.Bytes())
			}
			switch {
			case c.outFile != "":
				if c.outFile != "/dev/null" {
					p.mu.Lock()
					data := e.stdout.Bytes()
					f, ok := p.lookup(c.outFile)
					if ok && c.appendOut && !f.isDir() {
						data = append(bytes.Clone(f.data), data...)
					}
					mode := 0o666 &^ sh.umask
					if ok {
						mode = f.mode & 0o777 // an existing file keeps its mode
					}
					if err := p.createFile(c.outFile, bytes.Clone(data), mode); err != nil {
						fmt.Fprintf(out, "/system/bin/sh: can't create %s: %v\n", c.outFile, err)
						status = 1
					}
					p.mu.Unlock()
				}
				stdin = nil
			case i < len(pl.cmds)-1:
				stdin = e.stdout.Bytes()
			default:
				if _, err := out.Write(e.stdout.Bytes()); err != nil {
					return
				}
			}
		}
	}
}

func (p *Phone) exec(e *cmdEnv) int {
	name := e.args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 && (strings.HasPrefix(name, "/system/bin/") || strings.HasPrefix(name, "/bin/")) {
		name = name[i+1:]
	}
	c, ok := commands[name]
	if !ok {
		e.err("/system/bin/sh: %s: inaccessible or not found\n", e.args[0])
		return 127
	}
	p.countLook(name)
	status := c(p, e)
	p.afterCommand(name, e.args[1:])
	return status
}

// cmdSh runs `sh -c LINE`; other forms are refused.
func (p *Phone) cmdSh(e *cmdEnv) int {
	if len(e.args) < 3 || e.args[1] != "-c" {
		e.err("/system/bin/sh: only `sh -c COMMAND` is supported here\n")
		return 2
	}
	// A child shell inherits the umask.
	p.runShellWith(&shellState{umask: e.sh.umask}, e.args[2], e.stdout)
	return 0
}

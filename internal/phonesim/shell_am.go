package phonesim

import (
	"encoding/base64"
	"strconv"
	"strings"
)

func (p *Phone) cmdAm(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) == 0 {
		e.err("usage: am [subcommand] [options]\n")
		return 1
	}
	switch args[0] {
	case "broadcast":
		return p.amBroadcast(e, args[1:])
	case "start", "start-activity":
		for i := 1; i+1 < len(args); i++ {
			if args[i] == "-n" {
				pkg, _, _ := strings.Cut(args[i+1], "/")
				app, ok := p.resolvePkg(pkg)
				if !ok {
					e.err("Error: Activity class {%s} does not exist.\n", args[i+1])
					return 1
				}
				p.mu.Lock()
				p.logInput("launch", pkg)
				p.beforeInput()
				p.launch(app)
				p.mu.Unlock()
				e.out("Starting: Intent { cmp=%s }\n", args[i+1])
				return 0
			}
		}
		e.err("Error: am start needs -n <package>/<activity>\n")
		return 1
	case "force-stop":
		if len(args) > 1 {
			p.mu.Lock()
			if p.pkg(p.top().app) == args[1] {
				p.launch(pkgLauncher)
			}
			p.mu.Unlock()
		}
		return 0
	}
	e.err("Error: unknown command '%s'\n", args[0])
	return 1
}

func (p *Phone) amBroadcast(e *cmdEnv, args []string) int {
	var action string
	extras := map[string]string{}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-a":
			if i+1 < len(args) {
				action = args[i+1]
				i++
			}
		case "--es", "--ei", "--ez":
			if i+2 < len(args) {
				extras[args[i+1]] = args[i+2]
				i += 2
			}
		case "-n", "-f", "-p", "--user":
			i++
		}
	}
	if action == "" {
		e.err("Error: broadcast needs -a <action>\n")
		return 1
	}
	e.out("Broadcasting: Intent { act=%s flg=0x400000 }\n", action)
	p.mu.Lock()
	active := p.adbKeyboardActive()
	switch action {
	case "ADB_INPUT_TEXT", "ADB_INPUT_B64":
		msg := extras["msg"]
		if action == "ADB_INPUT_B64" {
			b, err := base64.StdEncoding.DecodeString(msg)
			if err != nil {
				p.mu.Unlock()
				e.out("Broadcast completed: result=0\n")
				return 0
			}
			msg = string(b)
		}
		p.logInput("ime_text", msg)
		p.beforeInput()
		if active {
			p.typeText(msg)
		}
	case "ADB_CLEAR_TEXT":
		p.logInput("ime_clear")
		p.beforeInput()
		if active {
			p.clearText()
		}
	case "ADB_INPUT_CODE":
		if code, err := strconv.Atoi(extras["code"]); err == nil && active {
			p.logInput("keyevent", strconv.Itoa(code))
			p.beforeInput()
			p.key(code)
		}
	}
	p.mu.Unlock()
	e.out("Broadcast completed: result=0\n")
	return 0
}

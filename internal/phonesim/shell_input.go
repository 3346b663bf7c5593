package phonesim

import (
	"fmt"
	"strconv"
	"strings"
)

var inputSources = map[string]bool{"touchscreen": true, "keyboard": true, "mouse": true, "touchpad": true,
	"stylus": true, "trackball": true, "dpad": true, "gamepad": true, "joystick": true, "touchnavigation": true}

const inputUsage = `Usage: input [<source>] <command> [<arg>...]
The commands and default sources are:
      text <string> (Default: touchscreen)
      keyevent [--longpress] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
`

func atoiArgs(ss []string) ([]int, error) {
	out := make([]int, len(ss))
	for i, s := range ss {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("Error: invalid number %q", s)
		}
		out[i] = int(f)
	}
	return out, nil
}

func (p *Phone) cmdInput(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) > 0 && inputSources[args[0]] {
		args = args[1:]
	}
	if len(args) == 0 {
		e.err("%s", inputUsage)
		return 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch args[0] {
	case "tap":
		if len(args) != 3 {
			e.err("Error: tap needs <x> <y>\n%s", inputUsage)
			return 1
		}
		v, err := atoiArgs(args[1:3])
		if err != nil {
			e.err("%v\n", err)
			return 1
		}
		p.logInput("tap", args[1:3]...)
		p.beforeInput()
		p.tap(p.toLayout(v[0]), p.toLayout(v[1]))
	case "swipe", "draganddrop":
		if len(args) != 5 && len(args) != 6 {
			e.err("Error: swipe needs <x1> <y1> <x2> <y2> [duration(ms)]\n%s", inputUsage)
			return 1
		}
		v, err := atoiArgs(args[1:])
		if err != nil {
			e.err("%v\n", err)
			return 1
		}
		p.logInput("swipe", args[1:]...)
		p.beforeInput()
		x1, y1, x2, y2 := p.toLayout(v[0]), p.toLayout(v[1]), p.toLayout(v[2]), p.toLayout(v[3])
		if len(v) == 5 && v[4] >= longPressMs && abs(x2-x1) < 24 && abs(y2-y1) < 24 {
			p.longPress(x1, y1) // how adb long-presses: a swipe that stays put
			break
		}
		p.swipe(x1, y1, x2, y2)
	case "keyevent", "press":
		keys := args[1:]
		if args[0] == "press" {
			keys = []string{"23"}
		}
		if len(keys) > 0 && (keys[0] == "--longpress" || keys[0] == "--doubletap") {
			keys = keys[1:]
		}
		if len(keys) == 0 {
			e.err("Error: keyevent needs a key code\n%s", inputUsage)
			return 1
		}
		for _, k := range keys {
			code, ok := parseKey(k)
			if !ok {
				e.err("Error: Unknown keycode %s\n", k)
				return 1
			}
			p.logInput("keyevent", p.masked(strconv.Itoa(code)))
			p.beforeInput()
			p.key(code)
		}
	case "text":
		if len(args) < 2 {
			e.err("Error: text needs <string>\n%s", inputUsage)
			return 1
		}
		t := strings.ReplaceAll(strings.Join(args[1:], " "), "%s", " ")
		p.logInput("text", p.masked(t))
		p.beforeInput()
		// `input text` injects key events, which exist only for ASCII.
		var ascii strings.Builder
		for _, r := range t {
			if r >= 0x20 && r < 0x7f {
				ascii.WriteRune(r)
			}
		}
		p.typeText(ascii.String())
	default:
		e.err("Error: Unknown command: %s\n%s", args[0], inputUsage)
		return 1
	}
	return 0
}

package phonesim

import (
	"bytes"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func (p *Phone) cmdUiautomator(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) == 0 || args[0] != "dump" {
		e.err("Usage: uiautomator dump [--compressed] [file]\n")
		return 1
	}
	file := "/sdcard/window_dump.xml"
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "--") {
			file = a
		}
	}
	if !p.dumpWait() {
		// AOSP DumpCommand prints this on stderr and returns: exit
		// status 0, the file not written (docs/phones.md#a-phones-costs).
		e.err("ERROR: could not get idle state.\n")
		return 0
	}
	p.mu.Lock()
	s := p.display()
	p.mu.Unlock()
	if s.asleep {
		e.err("ERROR: null root node returned by UiTestAutomationBridge.\n")
		return 1
	}
	var xml bytes.Buffer
	if err := uitree.WriteXML(&xml, 0, s.elements()); err != nil {
		e.err("ERROR: could not write the dump: %v\n", err)
		return 1
	}
	if file == "/dev/tty" || file == "/dev/stdout" {
		e.stdout.Write(xml.Bytes())
		e.out("\nUI hierchary dumped to: %s\n", file)
		return 0
	}
	p.mu.Lock()
	err := p.writeFile(file, xml.Bytes(), 0o660, fixedMtime)
	p.mu.Unlock()
	if err != nil {
		e.err("ERROR: could not write %s: %v\n", file, err)
		return 1
	}
	e.out("UI hierchary dumped to: %s\n", file)
	return 0
}

func (p *Phone) cmdScreencap(e *cmdEnv) int {
	asPNG, file := false, ""
	args := e.args[1:]
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-p":
			asPNG = true
		case a == "-d":
			i++
		case a == "-h":
			e.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
			return 0
		case strings.HasPrefix(a, "-"):
		default:
			file = a
			asPNG = asPNG || strings.HasSuffix(a, ".png")
		}
	}
	p.mu.Lock()
	slow := p.faults.capSlow
	fail := p.faults.capFail > 0
	if fail {
		p.faults.capFail--
	}
	p.mu.Unlock()
	if slow > 0 {
		time.Sleep(slow)
	}
	if fail {
		e.err("screencap: Capture failed: Status: -1\n")
		return 1
	}
	p.mu.Lock()
	s := p.display()
	p.mu.Unlock()
	if s.secure {
		// A FLAG_SECURE window: the capture yields nothing.
		return 1
	}
	var img []byte
	if asPNG {
		b, err := p.rend.PNG(s)
		if err != nil {
			e.err("screencap: %v\n", err)
			return 1
		}
		img = b
	} else {
		img = p.rend.Raw(s)
	}
	if file != "" {
		p.mu.Lock()
		err := p.writeFile(file, bytes.Clone(img), 0o660, fixedMtime)
		p.mu.Unlock()
		if err != nil {
			e.err("Error opening file: %s (%v)\n", file, err)
			return 1
		}
		return 0
	}
	e.stdout.Write(img)
	return 0
}

// Screenshot returns the PNG the phone's screencap would produce, and
// false when the screen is secure (no capture possible). It ignores the
// screencap faults.
func (p *Phone) Screenshot() ([]byte, bool, error) {
	p.mu.Lock()
	s := p.display()
	p.mu.Unlock()
	if s.secure {
		return nil, false, nil
	}
	b, err := p.rend.PNG(s)
	return b, err == nil, err
}

// UITree returns the elements `uiautomator dump` would write.
func (p *Phone) UITree() []uitree.Element {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.display().elements()
}

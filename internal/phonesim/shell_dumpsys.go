package phonesim

import (
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"
)

// objID is a stable fake object id for dumpsys lines.
func objID(s string) string {
	h := fnv.New32a()
	_, _ = io.WriteString(h, s)
	return fmt.Sprintf("%07x", h.Sum32()&0xfffffff)
}

func shortActivity(pkg, act string) string {
	if strings.HasPrefix(act, pkg+".") {
		return strings.TrimPrefix(act, pkg)
	}
	return act
}

func (p *Phone) cmdDumpsys(e *cmdEnv) int {
	if len(e.args) < 2 {
		e.err("Usage: dumpsys <service>; try dumpsys window or dumpsys power\n")
		return 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.top()
	a, _ := p.cfg.Skin.info(v.app)
	switch e.args[1] {
	case "window":
		if len(e.args) > 2 && e.args[2] == "policy" {
			p.dumpPolicy(e)
			return 0
		}
		e.out("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
		e.out("  Window #0 Window{%s u0 %s/%s}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{shell}\n", objID(v.app+"w"), a.Package, a.Activity)
		e.out("  Window #1 Window{%s u0 StatusBar}:\n\n", objID("statusbar"))
		e.out("  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml port finger -keyb/v/h -nav/h}\n")
		switch win, locked := p.focusWindow(); {
		case win == "":
			e.out("  mCurrentFocus=Window{%s u0 %s/%s}\n", objID(v.app+"w"), a.Package, a.Activity)
		default:
			// A system window has the focus: the keyguard
			// (NotificationShade) or a dialog of the system's packages.
			e.out("  mCurrentFocus=Window{%s u0 %s}\n", objID(win), win)
			if locked {
				e.out("  mShowingLockscreen=true mShowingDream=false mDreamingLockscreen=false\n")
			}
		}
		e.out("  mFocusedApp=ActivityRecord{%s u0 %s/%s t%d}\n", objID(v.app+"a"), a.Package, shortActivity(a.Package, a.Activity), 10+len(a.Package)%7)
		e.out("  mInputMethodWindow=Window{%s u0 InputMethod}\n", objID("ime"))
		p.dumpPolicy(e)
	case "power":
		wake, disp := "Awake", "ON"
		if !p.st.Awake {
			wake, disp = "Asleep", "OFF"
		}
		e.out("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=%s\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mBatteryLevel=100\n", wake)
		e.out("\nDisplay Power: state=%s\n", disp)
	case "activity":
		e.out("  mResumedActivity: ActivityRecord{%s u0 %s/%s t10}\n", objID(v.app+"a"), a.Package, shortActivity(a.Package, a.Activity))
	case "notification":
		p.dumpNotifications(e)
	case "battery":
		e.out("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  level: 100\n  scale: 100\n")
	default:
		e.err("Can't find service: %s\n", e.args[1])
		return 1
	}
	return 0
}

func (p *Phone) cmdWm(e *cmdEnv) int {
	if len(e.args) < 2 {
		e.err("Window manager (window) commands:\n  size [reset|WxH]\n  density [reset|DENSITY]\n")
		return 1
	}
	switch e.args[1] {
	case "size":
		e.out("Physical size: %dx%d\n", p.cfg.Width, p.cfg.Height)
	case "dismiss-keyguard":
		p.mu.Lock()
		p.logInput("dismiss_keyguard")
		p.dismissKeyguard()
		p.mu.Unlock()
	case "density":
		e.out("Physical density: %d\n", p.cfg.Density)
	default:
		e.err("Error: unknown command '%s'\n", e.args[1])
		return 1
	}
	return 0
}

func (p *Phone) props() [][2]string {
	p.mu.Lock()
	release := p.cfg.Android
	p.mu.Unlock()
	return [][2]string{
		{"persist.sys.locale", "en-US"},
		{"ro.build.id", "PSIM.240101.001"},
		{"ro.build.version.release", release},
		{"ro.build.version.sdk", "34"},
		{"ro.product.brand", "google"},
		{"ro.product.cpu.abi", "x86_64"},
		{"ro.product.device", "phonesim"},
		{"ro.product.locale", "en-US"},
		{"ro.product.manufacturer", "Google"},
		{"ro.product.model", p.cfg.Model},
		{"ro.product.name", "phonesim"},
		{"ro.serialno", p.cfg.SerialNo},
		{"ro.sf.lcd_density", strconv.Itoa(p.cfg.Density)},
		{"sys.boot_completed", "1"},
	}
}

func (p *Phone) cmdGetprop(e *cmdEnv) int {
	if len(e.args) >= 2 {
		for _, kv := range p.props() {
			if kv[0] == e.args[1] {
				e.out("%s\n", kv[1])
				return 0
			}
		}
		e.out("\n")
		return 0
	}
	for _, kv := range p.props() {
		e.out("[%s]: [%s]\n", kv[0], kv[1])
	}
	return 0
}

package device

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
)

func (d *adbDevice) Type(ctx context.Context, text string) error {
	out, err := d.shell(ctx, "settings get secure default_input_method")
	if err != nil {
		return notSent(fmt.Errorf("device %s: reading the input method: %w", d.serial, err))
	}
	prev := strings.TrimSpace(out)
	restore := func() error { return nil }
	if prev != AdbIME {
		if err := d.selectAdbIME(ctx); err != nil {
			if NeedsPerson(err) {
				return err
			}
			// Switching keyboards types nothing into the field.
			return notSent(err)
		}
		if !d.opts.KeepIME && prev != "" && prev != "null" && !commandFailed(prev) {
			restore = func() error {
				// Restore even when typing failed or the context ended.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				defer cancel()
				return d.send(rctx, "ime set "+adb.Quote(prev))
			}
		}
	}
	if err := d.enterText(ctx, text); err != nil {
		if rerr := restore(); rerr != nil {
			d.log.Warn("could not restore the input method", "ime", prev, "err", rerr)
		}
		return err
	}
	// Restore before settling, so the wait covers the keyboard switch too.
	if err := restore(); err != nil {
		return sent(fmt.Errorf("device %s: text entered, but restoring the input method %s failed: %w", d.serial, prev, err))
	}
	_, err = d.Settle(ctx)
	return sent(err)
}

// enterText replaces the focused field's text through ADB Keyboard
// broadcasts; the text travels base64-encoded so any Unicode survives the
// shell.
func (d *adbDevice) enterText(ctx context.Context, text string) error {
	if err := d.send(ctx, "am broadcast -a ADB_CLEAR_TEXT"); err != nil {
		return err
	}
	if text == "" {
		return nil
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(text))
	// The field was cleared: typing again clears it again.
	return maybeSent(d.send(ctx, "am broadcast -a ADB_INPUT_B64 --es msg "+adb.Quote(b64)))
}

// selectAdbIME makes the ADB Keyboard the current input method.
func (d *adbDevice) selectAdbIME(ctx context.Context) error {
	d.mu.Lock()
	known := d.imeOK
	d.mu.Unlock()
	if !known {
		out, err := d.ime(ctx, "ime list -s")
		if err != nil {
			return err
		}
		if !strings.Contains(out, AdbIME) {
			pk, err := d.shell(ctx, "pm list packages com.android.adbkeyboard")
			if err != nil {
				return fmt.Errorf("device %s: pm list packages: %w", d.serial, err)
			}
			if !strings.Contains(pk, "package:com.android.adbkeyboard") {
				return fmt.Errorf("device %s: %w", d.serial, ErrIMENotInstalled)
			}
		}
	}
	for _, cmd := range []string{"ime enable " + AdbIME, "ime set " + AdbIME} {
		out, err := d.ime(ctx, cmd)
		if err != nil {
			return err
		}
		if strings.Contains(out, "Unknown input method") || strings.Contains(out, "cannot be enabled") ||
			strings.Contains(out, "cannot be selected") {
			// Installed perhaps, but not registered as an input method.
			return fmt.Errorf("device %s: %w (phone said: %s)", d.serial, ErrIMENotInstalled, clip(out))
		}
		if commandFailed(out) {
			return fmt.Errorf("device %s: %s failed: %s", d.serial, cmd, clip(out))
		}
	}
	d.mu.Lock()
	d.imeOK = true
	d.mu.Unlock()
	return nil
}

// ime runs an `ime` command and returns its output; a phone that refuses
// it for want of WRITE_SECURE_SETTINGS is ErrIMEBlocked, which names the
// setting to turn on instead of passing the stack trace on.
func (d *adbDevice) ime(ctx context.Context, cmd string) (string, error) {
	out, err := d.shell(ctx, cmd)
	if err != nil {
		return "", fmt.Errorf("device %s: %s: %w", d.serial, cmd, err)
	}
	if imeBlocked(out) {
		return "", fmt.Errorf("device %s: %w", d.serial, ErrIMEBlocked)
	}
	return out, nil
}

// imeBlocked reports whether `ime` output is the SecurityException of a
// phone that withholds WRITE_SECURE_SETTINGS from adb.
func imeBlocked(out string) bool {
	return strings.Contains(out, "SecurityException") && strings.Contains(out, "WRITE_SECURE_SETTINGS")
}

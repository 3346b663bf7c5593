package activities

import (
	"errors"
	"testing"

	"go.temporal.io/sdk/temporal"
)

func TestHandBackDeviceError(t *testing.T) {
	dev := temporal.NewApplicationError("Tap: device offline", ErrTypeDevice)
	if got := handBackDeviceError(1, dev); got != dev {
		t.Fatalf("first attempt: %v, want the retryable error unchanged", got)
	}
	var app *temporal.ApplicationError
	got := handBackDeviceError(2, dev)
	if !errors.As(got, &app) || !app.NonRetryable() || app.Type() != ErrTypeDevice || app.Message() != "Tap: device offline" {
		t.Fatalf("second attempt: %v, want a non-retryable DeviceError with the same message", got)
	}
	model := temporal.NewApplicationError("model busy", ErrTypeModelRetryable)
	if got := handBackDeviceError(3, model); got != model {
		t.Fatalf("model errors stay with Temporal's retries: %v", got)
	}
	if handBackDeviceError(2, nil) != nil {
		t.Fatal("nil must stay nil")
	}
}

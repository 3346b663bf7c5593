// Package security holds the tests that prove phoneflow's secure defaults
// end to end, on the embedded Temporal server with a simulated phone and
// the offline model server: API keys and tokens never reach histories,
// logs or printed configuration; payloads are encrypted when keys are
// configured and still read after key rotation; the worker drives only the
// phones it is allowed; sensitive taps wait for approval unless
// auto-approve is on; and every local listener binds loopback by default.
//
// The package has no code of its own: the behaviour it checks lives in
// config, internal/codec, internal/app, internal/device, workflows and the
// servers; these tests look at it from the outside.
package security

// Package mobileuse speaks the Qwen-VL mobile_use protocol
// (docs/models.md#mobile-use): a system prompt that declares the
// mobile_use function in <tools>, one user message with the task, the
// progress so far and the newest screenshot, and answers that call the
// function in <tool_call> JSON, as Qwen2.5-VL, Qwen3-VL and the models
// tuned from them (GUI-Owl, MAI-UI, UI-Venus) answer. Points are absolute
// pixels of the image as the processor resized it (Qwen2.5-VL) or a 0-999
// grid (Qwen3-VL).
package mobileuse

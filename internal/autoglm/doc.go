// Package autoglm implements the executor protocol (AutoGLM-Phone format):
// building requests with the current screenshot and element list, and
// parsing <think>…</think><answer>do(…)</answer> answers into typed actions.
package autoglm

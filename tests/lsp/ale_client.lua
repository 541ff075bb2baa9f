-- ale_client.lua -- ALE (Debian's vim-ale) in headless neovim with doc/editors.md's linter
-- definition, driven by tests/lsp/check_lint_ale.py: the zone ZONE linted from the buffer's
-- text (zonepuny --stdin-filename), the location list written to RESULT as "loc LINE COL
-- TYPE" (columns in bytes, as ALE and vim count them). The wait is for a state; its bound (a
-- minute) only keeps a hung linter from hanging the test.
local out = assert(io.open(os.getenv("RESULT"), "w"))
vim.cmd("runtime plugin/ale.vim")
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("ZONE")))
local buf = vim.api.nvim_get_current_buf()
out:write("ft " .. vim.bo.filetype .. "\n")
vim.cmd("ALELint")
vim.wait(60000, function()
  return vim.fn["ale#engine#IsCheckingBuffer"](buf) == 0 and #vim.fn.getloclist(0) > 0
end, 20)
for _, l in ipairs(vim.fn.getloclist(0)) do
  out:write(string.format("loc %d %d %s\n", l.lnum, l.col, l.type))
end
out:close()
vim.cmd("qa!")

-- neovim_client.lua -- neovim's own LSP client (headless) against zonepuny --lsp, driven by
-- tests/lsp/check_lsp_neovim.py with doc/editors.md's init.lua: the zone ZONE opened, its
-- diagnostics, a hover and the quick fixes as a user meets them, then the quickfix list that
-- doc/editors.md's errorformat makes of zonepuny --check. Each line of RESULT is "ok WHAT", "FAIL WHAT" or "diag ..." (the
-- diagnostics as neovim holds them: 0-based line and byte column). Every wait is for a state;
-- its bound (a minute) only keeps a hung server from hanging the test.
local out = assert(io.open(os.getenv("RESULT"), "w"))
local function say(ok, what)
  out:write((ok and "ok " or "FAIL ") .. what .. "\n")
  out:flush()
end
local WAIT = 60000
-- the client is doc/editors.md's init.lua (given with -u): its FileType autocommand starts
-- zonepuny --lsp (found on PATH) for the zone opened here
local file = os.getenv("ZONE")
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
say(vim.bo.filetype == "bindzone", "neovim takes the file for a zone (bindzone)")
local id
say(vim.wait(WAIT, function()
  for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
    if c.name == "zonepuny" then id = c.id end
  end
  return id ~= nil
end, 10), "the init.lua started zonepuny for the buffer")

local function diags()
  return vim.diagnostic.get(buf)
end
local function find(code)
  for _, d in ipairs(diags()) do
    if d.code == code then return d end
  end
end
local function dump(tag)
  for _, d in ipairs(diags()) do
    out:write(string.format("diag %s %d %d %d %d %s\n", tag, d.lnum, d.col, d.end_lnum,
                            d.end_col, d.code or ""))
  end
end

say(vim.wait(WAIT, function() return find("read") and find("mx-target") end, 10),
    "the diagnostics arrive")
dump("open")

-- hover over "münchen" (line 4): its ACE form
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) },
                 position = { line = 4, character = 2 } }
local res = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, WAIT) or {}
local text = ""
for _, r in pairs(res) do
  if r.result and r.result.contents then text = text .. (r.result.contents.value or "") end
end
say(text:find("xn--mnchen-3ya", 1, true) ~= nil, "hover shows the ACE form")

-- a diagnostic's quick fix, asked for and applied as neovim's own code_action does (the line's
-- diagnostics in LSP form as the context); the diagnostic then goes
local function fix(code, lnum, title)
  local ctx = {}
  for _, x in ipairs(vim.lsp.diagnostic.get_line_diagnostics(buf, lnum)) do
    if x.code == code then table.insert(ctx, x) end
  end
  if #ctx == 0 then return say(false, "no " .. code .. " diagnostic on line " .. lnum) end
  local p = { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = ctx[1].range,
              context = { diagnostics = ctx } }
  local rs = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", p, WAIT) or {}
  local done = false
  for _, r in pairs(rs) do
    for _, a in ipairs(r.result or {}) do
      if a.title == title and a.edit and not done then
        vim.lsp.util.apply_workspace_edit(a.edit, "utf-16")
        done = true
      end
    end
  end
  say(done, "quick fix offered: " .. title)
  say(vim.wait(WAIT, function()
    for _, x in ipairs(diags()) do
      if x.code == code and x.lnum == lnum then return false end
    end
    return true
  end, 10), "the diagnostic gone once fixed: " .. code)
end
fix("mx-target", 6, "Add the trailing dot: mail.example.net.")
fix("read", 5, "Write the label in its canonical ACE form: xn--mnchen-3ya")
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
out:write("line 5 " .. lines[6] .. "\n")
out:write("line 6 " .. lines[7] .. "\n")

-- an edit by hand: the last error mended, nothing left
vim.api.nvim_buf_set_lines(buf, 4, 5, false, { "münchen A 192.0.2.30" })
say(vim.wait(WAIT, function() return #diags() == 0 end, 10), "clean once the address is mended")
dump("end")

-- :make with the page's makeprg and errorformat (set by the test from doc/editors.md), on the
-- file as saved: the quickfix list, its columns in bytes
vim.cmd("silent make")
for _, q in ipairs(vim.fn.getqflist()) do
  if q.valid == 1 then
    out:write(string.format("qf %d %d %s\n", q.lnum, q.col, q.type))
  end
end
vim.lsp.stop_client(id)
say(vim.wait(WAIT, function() return vim.lsp.client_is_stopped(id) end, 10), "the server stopped")
out:close()
vim.cmd("qa!")

-- Drives the agents-md language server from Neovim's own LSP client (0.7+), headless.
-- Inputs come from the environment; results are written as JSON to AGENTS_MD_OUT.
local server = vim.env.AGENTS_MD_SERVER
local out = vim.env.AGENTS_MD_OUT
local hover_line = tonumber(vim.env.AGENTS_MD_HOVER_LINE)
local hover_char = tonumber(vim.env.AGENTS_MD_HOVER_CHAR)

local client_id = vim.lsp.start_client({
  name = 'agents-md',
  cmd = { vim.env.AGENTS_MD_NODE or 'node', server, '--stdio' },
  root_dir = vim.env.AGENTS_MD_ROOT,
})
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)

local got = vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)

local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(diagnostics, { code = lsp.code or d.code, line = d.lnum, col = d.col, severity = d.severity, message = d.message })
end

local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = hover_line, character = hover_char } }
local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, 10000)
local hover_text = ''
for _, r in pairs(hover or {}) do
  if r.result and r.result.contents then hover_text = r.result.contents.value or vim.inspect(r.result.contents) end
end

local completion = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, 10000)
local labels = {}
for _, r in pairs(completion or {}) do
  local items = r.result and (r.result.items or r.result) or {}
  for _, item in ipairs(items) do table.insert(labels, item.label) end
end

vim.fn.writefile({ vim.fn.json_encode({ waited = got, diagnostics = diagnostics, hover = hover_text, completion = labels }) }, out)
vim.lsp.stop_client(client_id)
vim.cmd('qa!')

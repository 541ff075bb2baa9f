// extension.js -- zonepuny --lsp for VS Code: the language client started for zone files, with
// the settings of package.json handed to the server as its initializationOptions.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const cfg = vscode.workspace.getConfiguration("zonepuny");
  const server = { command: cfg.get("path") || "zonepuny", args: ["--lsp", ...cfg.get("args", [])] };
  const settings = {};
  if (cfg.get("origin")) settings.origin = cfg.get("origin");
  if (cfg.get("namedConf")) settings.namedConf = cfg.get("namedConf");
  client = new LanguageClient("zonepuny", "zonepuny", server, {
    documentSelector: [{ scheme: "file", language: "dns-zone" }],
    initializationOptions: settings,
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

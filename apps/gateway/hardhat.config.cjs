// Minimal Hardhat 2 config for the localnet upstream (startLocalnet): chain 31337, automine, default accounts.
module.exports = {
  networks: { hardhat: { chainId: 31337 } },
};

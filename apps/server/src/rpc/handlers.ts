/** Method name → handler. Typed as a complete map, so a contract method without a handler fails to compile. */
import type { TMethodName } from '@rpc/contract';
import type { THandler } from './define-handler';
import { changePasswordHandler } from './methods/account/change-password';
import { changeUserLangHandler } from './methods/account/change-user-lang';
import { checkEmailConfirmCodeStatusHandler } from './methods/account/check-email-confirm-code-status';
import { emailConfirmHandler } from './methods/account/email-confirm';
import { emailExistsHandler } from './methods/account/email-exists';
import { getConfigHandler } from './methods/account/get-config';
import { getUserProfileHandler } from './methods/account/get-user-profile';
import { loginHandler } from './methods/account/login';
import { logoutHandler } from './methods/account/logout';
import { passwordResetHandler } from './methods/account/password-reset';
import { passwordResetCodeStatusHandler } from './methods/account/password-reset-code-status';
import { registerHandler } from './methods/account/register';
import { sendRegisterConfirmMailHandler } from './methods/account/send-register-confirm-mail';
import { sendResetPasswordMailHandler } from './methods/account/send-reset-password-mail';
import { removeAvatarHandler } from './methods/account/remove-avatar';
import { setRechargeTipsHandler } from './methods/account/set-recharge-tips';
import { setUserAcceptTermHandler } from './methods/account/set-user-accept-term';
import { setUserNicknameHandler } from './methods/account/set-user-nickname';
import { getSupportChainsHandler } from './methods/chains/get-support-chains';
import { getUserLimitInfoHandler } from './methods/chains/get-user-limit-info';
import { getRuTableHandler } from './methods/chains/get-ru-table';
import { generateApiKeyHandler } from './methods/api-keys/generate-api-key';
import { getApiKeysHandler } from './methods/api-keys/get-api-keys';
import { getApiKeyHandler } from './methods/api-keys/get-api-key';
import { getPureApiKeysHandler } from './methods/api-keys/get-pure-api-keys';
import { setApiKeyNameHandler } from './methods/api-keys/set-api-key-name';
import { deleteApiKeyHandler } from './methods/api-keys/delete-api-key';
import { updateApiKeyHandler } from './methods/api-keys/update-api-key';
import { setApiKeyAdvancedFeaturesHandler } from './methods/api-keys/set-api-key-advanced-features';
import { setApiKeyMevHandler } from './methods/api-keys/set-api-key-mev';
import { setApiKeyBundlerHandler } from './methods/api-keys/set-api-key-bundler';
import { getApiKeyNeedUpgradeHandler } from './methods/api-keys/get-api-key-need-upgrade';
import { getUserMessagesHandler } from './methods/notices/get-user-messages';
import { setUserMessageReadHandler } from './methods/notices/set-user-message-read';
import { setUserMessageReadAllHandler } from './methods/notices/set-user-message-read-all';
import { getUserEmailConfigHandler } from './methods/notices/get-user-email-config';
import { setUserEmailConfigHandler } from './methods/notices/set-user-email-config';
import { reportUserRuUsageHandler } from './methods/reports/report-user-ru-usage';
import { reportUserRequestByApikeyHandler } from './methods/reports/report-user-request-by-apikey';
import { reportUserRuUsageByApikeyHandler } from './methods/reports/report-user-ru-usage-by-apikey';
import { reportUserCompositeInfoHandler } from './methods/reports/report-user-composite-info';
import { reportApikeyRequestHandler } from './methods/reports/report-apikey-request';
import { reportApikeyRuUsageHandler } from './methods/reports/report-apikey-ru-usage';
import { reportApikeyCompositeInfoHandler } from './methods/reports/report-apikey-composite-info';
import { reportUsageInfoByApikeyHandler } from './methods/reports/report-usage-info-by-apikey';
import { reportUsageInfoByNetworkHandler } from './methods/reports/report-usage-info-by-network';
import { reportUserCompositeInfoByApikeyHandler } from './methods/reports/report-user-composite-info-by-apikey';
import { reportUserCompositeInfoByNetworkHandler } from './methods/reports/report-user-composite-info-by-network';
import { reportUserTop5MethodRuCostByApikeyHandler } from './methods/reports/report-user-top5-method-ru-cost-by-apikey';
import { reportUserTop5MethodRuCostByNetworkHandler } from './methods/reports/report-user-top5-method-ru-cost-by-network';
import { reportUserRefusalsHandler } from './methods/reports/report-user-refusals';
import { reportUserPurchaseHandler } from './methods/reports/report-user-purchase';
import { reportUserDepositHandler } from './methods/reports/report-user-deposit';
import { CARD_HANDLERS } from './methods/cards/index';
import { DN_HANDLERS } from './methods/dedicated-nodes/index';
import { DEPOSIT_HANDLERS } from './methods/deposits/index';
import { EXPORT_HANDLERS } from './methods/exports/index';
import { INVOICE_HANDLERS } from './methods/invoices/index';
import { TEAM_HANDLERS } from './methods/teams/index';
import { SIGN_IN_HANDLERS } from './methods/sign-in/index';
import { SUPPORT_HANDLERS } from './methods/support/index';
import { REQUEST_LOG_HANDLERS } from './methods/request-logs/index';
import { WALLET_HANDLERS } from './methods/wallet/index';

export const HANDLERS: { [N in TMethodName]: THandler<N> } = {
  hub_register: registerHandler,
  hub_sendRegisterConfirmMail: sendRegisterConfirmMailHandler,
  hub_emailExists: emailExistsHandler,
  hub_emailConfirm: emailConfirmHandler,
  hub_checkEmailConfirmCodeStatus: checkEmailConfirmCodeStatusHandler,
  hub_login: loginHandler,
  hub_logout: logoutHandler,
  hub_getUserProfile: getUserProfileHandler,
  hub_sendResetPasswordMail: sendResetPasswordMailHandler,
  hub_passwordResetCodeStatus: passwordResetCodeStatusHandler,
  hub_passwordReset: passwordResetHandler,
  hub_changePassword: changePasswordHandler,
  hub_setUserNickname: setUserNicknameHandler,
  hub_changeUserLang: changeUserLangHandler,
  hub_setUserAcceptTerm: setUserAcceptTermHandler,
  hub_setRechargeTips: setRechargeTipsHandler,
  hub_removeAvatar: removeAvatarHandler,
  hub_getConfig: getConfigHandler,
  hub_getSupportChains: getSupportChainsHandler,
  hub_getUserLimitInfo: getUserLimitInfoHandler,
  hub_getRuTable: getRuTableHandler,
  hub_generateApiKey: generateApiKeyHandler,
  hub_getApiKeys: getApiKeysHandler,
  hub_getApiKey: getApiKeyHandler,
  hub_getPureApiKeys: getPureApiKeysHandler,
  hub_setApiKeyName: setApiKeyNameHandler,
  hub_deleteApiKey: deleteApiKeyHandler,
  hub_updateApiKey: updateApiKeyHandler,
  hub_setApiKeyAdvancedFeatures: setApiKeyAdvancedFeaturesHandler,
  hub_setApiKeyMev: setApiKeyMevHandler,
  hub_setApiKeyBundler: setApiKeyBundlerHandler,
  hub_getApiKeyNeedUpgrade: getApiKeyNeedUpgradeHandler,
  hub_getUserMessages: getUserMessagesHandler,
  hub_setUserMessageRead: setUserMessageReadHandler,
  hub_setUserMessageReadAll: setUserMessageReadAllHandler,
  hub_getUserEmailConfig: getUserEmailConfigHandler,
  hub_setUserEmailConfig: setUserEmailConfigHandler,
  hub_reportUserRuUsage: reportUserRuUsageHandler,
  hub_reportUserRequestByApikey: reportUserRequestByApikeyHandler,
  hub_reportUserRuUsageByApikey: reportUserRuUsageByApikeyHandler,
  hub_reportUserCompositeInfo: reportUserCompositeInfoHandler,
  hub_reportApikeyRequest: reportApikeyRequestHandler,
  hub_reportApikeyRuUsage: reportApikeyRuUsageHandler,
  hub_reportApikeyCompositeInfo: reportApikeyCompositeInfoHandler,
  hub_reportUsageInfoByApikey: reportUsageInfoByApikeyHandler,
  hub_reportUsageInfoByNetwork: reportUsageInfoByNetworkHandler,
  hub_reportUserCompositeInfoByApikey: reportUserCompositeInfoByApikeyHandler,
  hub_reportUserCompositeInfoByNetwork: reportUserCompositeInfoByNetworkHandler,
  hub_reportUserTop5MethodRuCostByApikey: reportUserTop5MethodRuCostByApikeyHandler,
  hub_reportUserTop5MethodRuCostByNetwork: reportUserTop5MethodRuCostByNetworkHandler,
  hub_reportUserRefusals: reportUserRefusalsHandler,
  hub_reportUserPurchase: reportUserPurchaseHandler,
  hub_reportUserDeposit: reportUserDepositHandler,
  // Newer domains export their own maps (STYLE.md "Growing to every SPEC method", 1).
  ...WALLET_HANDLERS,
  ...DEPOSIT_HANDLERS,
  ...EXPORT_HANDLERS,
  ...INVOICE_HANDLERS,
  ...CARD_HANDLERS,
  ...TEAM_HANDLERS,
  ...SIGN_IN_HANDLERS,
  ...DN_HANDLERS,
  ...SUPPORT_HANDLERS,
  ...REQUEST_LOG_HANDLERS,
};

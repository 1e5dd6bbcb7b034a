/** Local app settings (SPEC §3 app config), kept in localStorage['app-config'] as {sidebarWidth, sidebarCollapse}. */
import { create } from 'zustand';
import { STORAGE_KEY } from './storage-keys';

export type TAppConfig = { sidebarWidth: number; sidebarCollapse: boolean };

export const DEFAULT_APP_CONFIG: TAppConfig = { sidebarWidth: 200, sidebarCollapse: false };

/** The stored config, with defaults for anything missing or malformed. */
export function parseAppConfig(raw: string | null): TAppConfig {
  try {
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (!value || typeof value !== 'object') return { ...DEFAULT_APP_CONFIG };
    const { sidebarWidth, sidebarCollapse } = value as Partial<Record<keyof TAppConfig, unknown>>;
    return {
      sidebarWidth:
        typeof sidebarWidth === 'number' && sidebarWidth >= 120 && sidebarWidth <= 480
          ? sidebarWidth
          : DEFAULT_APP_CONFIG.sidebarWidth,
      sidebarCollapse:
        typeof sidebarCollapse === 'boolean' ? sidebarCollapse : DEFAULT_APP_CONFIG.sidebarCollapse,
    };
  } catch {
    return { ...DEFAULT_APP_CONFIG };
  }
}

function load(): TAppConfig {
  try {
    return parseAppConfig(localStorage.getItem(STORAGE_KEY.appConfig));
  } catch {
    return { ...DEFAULT_APP_CONFIG };
  }
}

type TAppConfigStore = TAppConfig & {
  setSidebarCollapse: (sidebarCollapse: boolean) => void;
  setSidebarWidth: (sidebarWidth: number) => void;
};

export const useAppConfig = create<TAppConfigStore>()((set) => ({
  ...load(),
  setSidebarCollapse: (sidebarCollapse) => set({ sidebarCollapse }),
  setSidebarWidth: (sidebarWidth) => set({ sidebarWidth }),
}));

useAppConfig.subscribe(({ sidebarWidth, sidebarCollapse }) => {
  try {
    localStorage.setItem(STORAGE_KEY.appConfig, JSON.stringify({ sidebarWidth, sidebarCollapse }));
  } catch {
    // storage disabled: the setting lasts for this visit only
  }
});

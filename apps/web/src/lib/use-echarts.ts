/**
 * ECharts for the console's charts: only the parts the charts use are registered (echarts/core, bar and line,
 * grid, tooltip, legend, the SVG renderer), so the bundle carries no unused chart types. The SVG renderer
 * draws crisp at any zoom and also runs in jsdom, so page tests render real charts without a canvas mock.
 */
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import { BarChart, LineChart } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import type { ComposeOption, ECharts } from 'echarts/core';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

/** The options the registered parts understand. */
export type TChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
>;

/**
 * Draws `option` into the element the returned ref is attached to: created on mount, redrawn when the option
 * changes (a new object, so memoise it), resized with its box, disposed on unmount.
 */
export function useECharts<T extends HTMLElement = HTMLDivElement>(option: TChartOption | null) {
  const ref = useRef<T>(null);
  const chartRef = useRef<ECharts | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const chart = init(element, undefined, { renderer: 'svg' });
    chartRef.current = chart;
    const observer =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    // notMerge: a series that is gone (another key, another stack) must disappear, not linger.
    if (option) chartRef.current?.setOption(option, { notMerge: true });
  }, [option]);

  return ref;
}
